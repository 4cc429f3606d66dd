"""What Carcassonne's recorded games (tests/carcassonne/data/golden) must cover, for tests/test_golden.py."""
FEATURES = {
    "golden": {"road", "city", "cloister", "shared", "discard", "fields", "floor", "capture", "own_capture",
               "tower_meeple", "top_captured", "exchanged", "ransom"},
}
