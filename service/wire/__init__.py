"""The wire kit: the games' JSON on the wire, apart from their rules. Strict marshmallow fields and schemas read
by a compiled loader (`strict`), and the building blocks of every game's request and answer schemas, which
openapi.yaml is made from (`schemas`). The rules (`service.games.core`) know nothing of it; each game's
`schemas.py` describes its documents with it."""
