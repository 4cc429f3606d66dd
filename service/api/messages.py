"""The web service's sentences (problems' titles and details): entries of this folder's catalogues
(service.games.core.language)."""
from ..games.core.language import Catalogues

tr, tr_n, tr_p = Catalogues.of(__file__).makers()
