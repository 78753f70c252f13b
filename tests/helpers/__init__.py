"""What the tests share beyond fixtures: scenario builders, readers of what the services
wrote, and waits. The processes, the stack and the scripted people are the harness's
(harness/), shared with the benches and the playground."""
