"""San Gimignano's sentences: entries of this folder's catalogues (service.games.core.language)."""
from ..core.language import Catalogues

tr, tr_n, tr_p = Catalogues.of(__file__).makers()
