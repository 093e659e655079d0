"""Persistence: peewee tables, repositories and migrations. Only services import this."""
