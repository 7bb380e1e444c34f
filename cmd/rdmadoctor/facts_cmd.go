package main

import (
	"github.com/urfave/cli/v2"
)

func factsCommand() *cli.Command {
	return &cli.Command{
		Name:  "facts",
		Usage: "print the parsed fact document the rules see",
		Action: func(c *cli.Context) error {
			return nil
		},
	}
}
