"""What Campanile's recorded games (tests/campanile/data/golden) must cover, for tests/test_golden.py."""
FEATURES = {
    "golden": {"draw_1", "draw_2", "draw_3", "bet", "no_bet", "bet_above_stories", "end_pile_1", "end_pile_2",
               "end_pile_3", "height_tie", "total_tie", "variant_bet"},
}
