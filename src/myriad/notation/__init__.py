"""Position and move notations shared by several games."""
