package main

import (
	"encoding/json"

	"github.com/urfave/cli/v2"
)

func factsCommand() *cli.Command {
	return &cli.Command{
		Name:  "facts",
		Usage: "print the parsed fact document the rules see",
		Flags: inputFlags(),
		Action: func(c *cli.Context) error {
			s, err := loadSnapshot(c)
			if err != nil {
				return err
			}
			enc := json.NewEncoder(c.App.Writer)
			enc.SetIndent("", "  ")
			return enc.Encode(s)
		},
	}
}
