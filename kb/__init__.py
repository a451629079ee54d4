"""The knowledge store: syllabus, theory chunks, fact tables and retrieval over them."""
