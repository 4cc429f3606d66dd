"""What San Gimignano's recorded games (tests/sangimignano/data/golden) must cover, for tests/test_golden.py."""
FEATURES = {
    "golden": {"token", "second_token_same_player", "hex", "build", "declined", "returned_other_token",
               "skipped_no_token", "skipped_no_hexagon", "skipped_no_group", "end_stuck", "end_tenth_tower",
               "decided_by_towers", "decided_by_tokens_or_shared", "variant_large_group"},
}
