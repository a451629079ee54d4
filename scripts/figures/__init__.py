"""Figure drawings for the bundled knowledge base: one module per subject, plain SVG, no deps."""
