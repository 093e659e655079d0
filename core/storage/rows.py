"""One plain parameterised INSERT of a model instance built in memory: for the writes that
run on the UI thread, where peewee's query builder (~0.3 ms a statement) was most of the cost
(the save of a card of yours, bench/bench_tui.py "c -> cloze saved")."""

from __future__ import annotations

from core.storage.db import BaseModel, db
from core.storage.errors import translated


@translated
def insert_row(row: BaseModel) -> int:
    """Store a model instance built in memory (its defaults filled in by peewee) with one plain
    parameterised INSERT of its fields, inside the caller's transaction; returns its id.
    Columns and values come from the model's own fields (never by position). peewee's
    `create` composes the same statement through its query builder, ~0.3 ms each: on the
    save of a card of yours (bench/bench_tui.py) that was a third of the save."""
    fields = type(row)._meta.fields
    data = {
        fields[name].column_name: fields[name].db_value(value)
        for name, value in row.__data__.items()
        if name != "id"
    }
    names = ", ".join(data)
    cursor = db.connection().execute(
        f"INSERT INTO {type(row)._meta.table_name} ({names}) VALUES ({', '.join(':' + n for n in data)})",
        data,
    )
    row.id = cursor.lastrowid
    return int(row.id)
