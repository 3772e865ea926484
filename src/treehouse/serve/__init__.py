"""``th serve``: tables in the browser (see docs/serving.md).

:mod:`treehouse.serve.table` plays one table's game in its own thread with
people's seats answered from browsers; :mod:`treehouse.serve.app` is the
Starlette app that serves the lobby, the table pages and their WebSockets;
``static/`` holds the pages, their script and style.
"""
