"""What Torri's recorded games must cover, for tests/test_golden.py: the base game's (tests/torri/data/golden) and
the advanced game's, with the ten nobles (tests/torri/data/golden_nobles, the features
tools/make_torri_golden_nobles.py directs its games to)."""
FEATURES = {
    "golden": {"purchase", "exchange", "income", "trade_guarded", "trade_unguarded", "conspiracy_target",
               "conspiracy_guarded", "conspiracy_destroyed", "extend", "complete", "close", "ending_by_close",
               "ending_by_deck", "marker", "game_over"},
    "golden_nobles": {"noble_via_francigena", "noble_monumento", "noble_cappella", "noble_palazzo", "noble_mura",
                      "buona_pietra", "giostra", "giostra_on_noble", "giostra_on_buona_pietra_rebuild",
                      "palazzo_fizzled", "palazzo_cap_refusal", "via_francigena_stop", "buona_pietra_income",
                      "noble_drawn_from_market", "game_over"},
}
