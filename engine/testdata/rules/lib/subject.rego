# METADATA
# title: Subjects for the test rules
# description: Library modules load beside the rules and need no rule metadata.
# scope: package
package rdmadoctor.lib.subject

port(dev, p) := object.union({"device": dev.name, "port": p.number}, pci(dev))

pci(dev) := {"pci": dev.pci_address} if dev.pci_address != ""

else := {}
