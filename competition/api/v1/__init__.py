"""Version 1 of the read API. It stays as it is when a v2 comes (a module beside it):
a change that breaks a client makes a new version, never a change of this one."""
