"""Static API rendering, export to the object store, and the headers each file is served with."""
