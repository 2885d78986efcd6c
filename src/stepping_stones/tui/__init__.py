"""The Textual app (``stepping-stones`` with no command).  Imported only when the app runs."""
