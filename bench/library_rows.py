"""Raw SQL shared by the benchmarks that fill a library with executemany (bench_scheduler, bench_tui).

The card row's columns, in one place: the benches write 10^6 cards without the ORM, and a schema
change should break one statement, not two copies of it. `leech` is always 0 there.
"""

CARD_INSERT = (
    "INSERT INTO card (id, question_id, unit_id, state, step, stability, difficulty, due, last_review, reps, "
    "lapses, queue, active, suspended, leech, created_at, sbucket, t90) "
    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,0,?,?,?)"
)
