"""The wire kit's sentences: entries of this folder's catalogues (service.games.core.language), the kit's own and
marshmallow's.

marshmallow writes its messages in English before the kit sees them ("Must be one of: a, b."); `translatable`
finds the entry each came from and its parameters, so a shape error is said in every language like any other.
"""
from __future__ import annotations

import re

from ..games.core.language import Catalogues, Message

tr, tr_n, tr_p = Catalogues.of(__file__).makers()

# marshmallow's messages that the schemas can give (fields, validators, schemas), by their English template; each
# entry's parameters are marshmallow's. "Missing data for required field." is said the kit's way.
MARSHMALLOW = (
    ("Missing data for required field.", tr("This field is required.")),
    ("Unknown field.", tr("Unknown field.")),
    ("Field may not be null.", tr("Field may not be null.")),
    ("Invalid value.", tr("Invalid value.")),
    ("Invalid type.", tr("Invalid type.")),
    ("Invalid input type.", tr("Invalid input type.")),
    ("Invalid input.", tr("Invalid input.")),
    ("Not a valid list.", tr("Not a valid list.")),
    ("Not a valid string.", tr("Not a valid string.")),
    ("Not a valid utf-8 string.", tr("Not a valid utf-8 string.")),
    ("Not a valid number.", tr("Not a valid number.")),
    ("Number too large.", tr("Number too large.")),
    ("Not a valid integer.", tr("Not a valid integer.")),
    ("Special numeric values (nan or infinity) are not permitted.",
     tr("Special numeric values (nan or infinity) are not permitted.")),
    ("Not a valid boolean.", tr("Not a valid boolean.")),
    ("Not a valid mapping type.", tr("Not a valid mapping type.")),
    ("Must be one of: {choices}.", tr("Must be one of: {choices}.")),
    ("Must be greater than or equal to {min}.", tr("Must be greater than or equal to {min}.")),
    ("Must be greater than {min}.", tr("Must be greater than {min}.")),
    ("Must be less than or equal to {max}.", tr("Must be less than or equal to {max}.")),
    ("Must be less than {max}.", tr("Must be less than {max}.")),
    ("Must be greater than or equal to {min} and less than or equal to {max}.",
     tr("Must be greater than or equal to {min} and less than or equal to {max}.")),
    ("Must be greater than {min} and less than {max}.", tr("Must be greater than {min} and less than {max}.")),
    ("Shorter than minimum length {min}.", tr("Shorter than minimum length {min}.")),
    ("Longer than maximum length {max}.", tr("Longer than maximum length {max}.")),
    ("Length must be between {min} and {max}.", tr("Length must be between {min} and {max}.")),
    ("Length must be {equal}.", tr("Length must be {equal}.")),
    ("Must be equal to {other}.", tr("Must be equal to {other}.")),
    ("String does not match expected pattern.", tr("String does not match expected pattern.")),
    ("Invalid JSON body.", tr("Invalid JSON body.")),
)
_EXACT = {english: message for english, message in MARSHMALLOW if "{" not in english}
# the longest first: "Must be greater than or equal to {min}." would read "0 and less than or equal to 4" as {min}
_PATTERNS = [(re.compile(re.sub(r"\\\{([a-z_]+)\\\}", r"(?P<\1>.*)", re.escape(english)) + r"\Z", re.S), message)
             for english, message in sorted(MARSHMALLOW, key=lambda pair: -len(pair[0])) if "{" in english]


def translatable(text: str) -> str:
    """A message of a shape error as a Message: the kit's and the games' are already; marshmallow's English is
    matched to its entry (its parameters read back from the text); anything else stays as it is."""
    if isinstance(text, Message):
        return text
    exact = _EXACT.get(text)
    if exact is not None:
        return exact
    for pattern, message in _PATTERNS:
        found = pattern.match(text)
        if found:
            return Message(message.catalogues, message.text, found.groupdict())
    return text
