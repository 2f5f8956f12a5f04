"""The club's own settings, edited by its administrator on its own pages, and the first
season's steps shown to its leader until they are done."""
