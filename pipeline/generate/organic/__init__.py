"""Organic-chemistry question generators over the compound table (kb.organic), one per kind."""
