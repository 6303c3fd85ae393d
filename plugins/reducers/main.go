// Command bench-plugin-reducers serves polyclass's reductions from
// multiclass (and multi-label) tasks to binary problems.
package main

import (
	"github.com/polyclass/polyclass/framework/sdk"
	"github.com/polyclass/polyclass/plugins/reducers/reducer"
)

func main() {
	sdk.Serve(sdk.WithReducer(reducer.New()))
}
