"""The README's tour (README.md#the-tour-on-a-running-database): the refunds book from Python,
through the client `chobo build --target postgres-python` writes (on PYTHONPATH). psycopg reads PGHOST,
PGPORT, PGUSER and PGDATABASE. Run by tests/chobo/tour_test.ts.

    PYTHONPATH=/tmp/tour/py python3 examples/refunds/tour/tour.py

autocommit=True: each call commits when it returns. Without it psycopg opens a transaction that
nothing commits, and closing the connection throws every write away.
"""

import psycopg

from refunds import Result, postgres


def said(r: Result) -> str:
    return f"refused {r.reason}" if r.result == "refused" else r.result


with psycopg.connect(autocommit=True) as conn:
    book = postgres(conn)
    order = "order-py"
    print(f"sale.do: {said(book.sale.do(order=order, amount=3000))}")
    print(f"refund.hold r-1: {said(book.refund.hold(refund_id='r-1', order=order, amount=2000))}")
    print(f"refund.hold r-2: {said(book.refund.hold(refund_id='r-2', order=order, amount=2000))}")
    print(f"refund.post r-1: {said(book.refund.post(refund_id='r-1', order=order))}")
    b = book.balance.refundable(order=order)
    print(f"refundable({order}): posted {b.posted}, held_in {b.held_in}, held_out {b.held_out}")
