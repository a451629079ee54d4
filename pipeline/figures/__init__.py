"""Question figures: drawn from specs (core.figures), sanitised, drafted into questions."""
