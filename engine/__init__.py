"""The attention engine: numpy and the standard library only, so it runs on CPython and in Pyodide."""
