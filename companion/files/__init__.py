"""Files read by name and checked: YAML with line numbers and bounds, the
validation shared by every file, safe text, regular files only."""
