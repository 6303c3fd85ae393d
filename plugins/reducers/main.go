// Command bench-plugin-reducers serves polyclass's reductions from
// multiclass (and multi-label) tasks to binary problems.
package main

import (
	"context"
	"log"

	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
)

func main() {
	if err := sdk.Serve(context.Background(), sdk.WithReducer(reducer.New())); err != nil {
		log.Fatal(err)
	}
}
