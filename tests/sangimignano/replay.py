"""What the replay tests (tests/replay/test_cli.py) expect of San Gimignano's seeded dispute (tests/replay/records.py's
`disputed`, the base game at the players the tests seat it with): the rule the inserted step breaks. A change here
means the seeded game or the rules changed: check that the dispute still names the rule a referee would."""
DISPUTED_RULE = "S-TURN-1"  # a build step in the token phase (a turn is token, hexagon, tower)
