"""Table files (the headless contract in shared/spec/table-files.md): YAML in, engine calls,
results out. Validation here names the field; the rules themselves live in the engine."""
