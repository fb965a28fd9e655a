// Package netns runs a test in a private network namespace of its own, so
// that multicast (mDNS) and every packet of the test stay off the
// machine's real interfaces. It is for tests only.
//
// Isolate re-runs the test binary for the calling test alone under
// CLONE_NEWUSER|CLONE_NEWNET (like `unshare -rn`), with env set to "1",
// and reports the child's result; inside, the test calls SetupLoopback and
// runs. Where namespaces are unavailable the test is skipped with a reason.
package netns
