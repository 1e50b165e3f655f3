"""The rules model: knows no particular game."""
