// Command siteplan plans a website's structure: a web editor for the page
// tree and a CLI for scripts (docs/cli.md). The command line lives in cli.
package main

import (
	_ "time/tzdata" // the members' digest time zones, on a machine without /usr/share/zoneinfo

	"siteplan/cli"
)

func main() { cli.Main() }
