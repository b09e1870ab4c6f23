"""Nemron: its rules (:mod:`.rules`) and its declaration for the app (:mod:`.game`)."""
