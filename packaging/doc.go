// Package packaging holds what turns Rockstep into things people install:
// the server container (Dockerfile), the systemd unit, the Linux desktop
// entry and README, the macOS Info.plist template. scripts/dist assembles the
// release artifacts from them (`make dist`).
//
// Its tests check these files: the Dockerfile's required directives, the
// systemd unit's hardening (and systemd-analyze verify where available), the
// desktop entry; and, when ROCKSTEP_DIST names a dist folder (`make
// dist-check`), every artifact's format, architecture and contents, and that
// the Linux build runs from its extracted tarball.
package packaging
