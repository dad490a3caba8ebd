// The README's tour (README.md#the-tour-on-a-running-database): the refunds book from Go, through
// the package `chobo build --target postgres-go` writes next to this file (./refunds). pgx reads PGHOST,
// PGPORT, PGUSER and PGDATABASE. Run by tests/chobo/tour_test.ts.
//
//	cd /tmp/tour/go && go run .
package main

import (
	"context"
	"fmt"
	"log"

	"github.com/jackc/pgx/v5"

	"chobo.example/tour/refunds"
)

func said(r refunds.Result, err error) string {
	if err != nil {
		log.Fatal(err)
	}
	if r.Outcome == refunds.Refused {
		return "refused " + r.Reason
	}
	return string(r.Outcome)
}

func main() {
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, "")
	if err != nil {
		log.Fatal(err)
	}
	defer conn.Close(ctx)
	book := refunds.Postgres(conn, "")
	order := "order-go"
	fmt.Println("sale.do:", said(book.Sale.Do(ctx, refunds.SaleArgs{Order: order, Amount: 3000})))
	fmt.Println("refund.hold r-1:", said(book.Refund.Hold(ctx, refunds.RefundArgs{RefundId: "r-1", Order: order, Amount: 2000})))
	fmt.Println("refund.hold r-2:", said(book.Refund.Hold(ctx, refunds.RefundArgs{RefundId: "r-2", Order: order, Amount: 2000})))
	fmt.Println("refund.post r-1:", said(book.Refund.Post(ctx, refunds.RefundKey{RefundId: "r-1", Order: order}, nil)))
	b, err := book.Balance.Refundable(ctx, refunds.RefundableAccount{Order: order})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("refundable(%s): posted %d, held_in %d, held_out %d\n", order, b.Posted, b.HeldIn, b.HeldOut)
}
