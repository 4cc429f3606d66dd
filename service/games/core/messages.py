"""The sentences of the games' shared core: entries of this folder's catalogues (service.games.core.language)."""
from .language import Catalogues

tr, tr_n, tr_p = Catalogues.of(__file__).makers()
