package main

import (
	"encoding/json"
	"fmt"

	"github.com/urfave/cli/v2"

	"github.com/rdmadoctor/rdmadoctor/report/render"
)

func factsCommand() *cli.Command {
	return &cli.Command{
		Name:  "facts",
		Usage: "print the parsed fact document the rules see (docs/snapshot.schema.json)",
		Flags: append(inputFlags(),
			&cli.StringFlag{Name: "format", Value: "json", Usage: "output `FORMAT`: json or yaml"},
		),
		Action: func(c *cli.Context) error {
			format := c.String("format")
			if format != "json" && format != "yaml" {
				return withCode(exitUsage, fmt.Errorf("--format %q: want json or yaml", format))
			}
			s, err := loadSnapshot(c)
			if err != nil {
				return err
			}
			if format == "yaml" {
				return render.YAMLOf(c.App.Writer, s)
			}
			enc := json.NewEncoder(c.App.Writer)
			enc.SetIndent("", "  ")
			enc.SetEscapeHTML(false)
			return enc.Encode(s)
		},
	}
}
