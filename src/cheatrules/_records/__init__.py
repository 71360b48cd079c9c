"""The records' private parts: rules as JSON, and reading one seat's view record.

:mod:`cheatrules.records` and :mod:`cheatrules.match` are the public face;
this package holds ``rules_json`` (a ``Rules`` value to JSON and back),
``views`` (a view record read and checked field by field), ``view_log``
(a view's log followed from the deal, every event checked) and
``stored_view`` (a view record's fields as stored). Importing the package
loads none of them.
"""
