// Package udfs is the TUI's `:udfs` view: the UDF registry's functions
// (name, language, class, where they live, signature) and the jobs that
// call the one under the cursor; enter opens the jobs table on those jobs. It only renders what core/api answers;
// functions are registered through `palink udf add`. The list is a
// kit.Table drawn from kit.Columns specs (screen.go).
//
// All it asks of core is its Service (svc.go): api.UDFService.
package udfs
