"""Ingestion: parse documents (Markdown, HTML, PDF, CNXML) into sections and figures, chunk, tag."""
