"""The Inheritors screens: setup, the sheet, the final screen."""
