"""Table files (the headless contract in docs/table-files.md): YAML in, engine calls,
results out. Validation here names the field; the rules themselves live in the engine."""
