#!/usr/bin/env bash
# Sets this machine up for the tests, idempotently: the Debian packages they use (as root, with
# apt-get; a warm machine skips apt entirely) and the real single-node Slurm cluster. What cannot
# be had here is named in one line with how to get it: the tests that need it are skipped, and
# never fail for that reason. Always exits 0.
set -uo pipefail
cd "$(dirname "$0")/.."

can_install=0
if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then can_install=1; fi
apt_updated=0

# a command on the PATH, or a file at an absolute path
present() {
  case "$1" in
    /*) [ -e "$1" ] ;;
    *) command -v "$1" >/dev/null 2>&1 ;;
  esac
}

# need <command or absolute path> <Debian package> <what the tests use it for>
need() {
  present "$1" && return 0
  if [ "$can_install" = 1 ]; then
    if [ "$apt_updated" = 0 ]; then apt-get -o DPkg::Lock::Timeout=600 update -qq >/dev/null 2>&1; apt_updated=1; fi
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends "$2" >/dev/null 2>&1
    present "$1" && return 0
  fi
  echo "test setup: no $(basename "$1") here, so the tests of $3 are skipped; get it with: apt-get install $2 (as root)"
}

need script bsdutils "the delete prompt on a pseudo-terminal"
need latexmk latexmk "LaTeX compiles"
need pdflatex texlive-latex-base "LaTeX compiles"
need rsvg-convert librsvg2-bin "figures as vector PDF"
need pdftotext poppler-utils "reading PDFs (compiled papers, uploaded files, fetched pages)"
tex=/usr/share/texlive/texmf-dist
need $tex/tex/latex/acmart/acmart.cls texlive-publishers "the venue templates (acmart, IEEEtran, llncs)"
need $tex/tex/generic/xstring/xstring.sty texlive-latex-extra "the ACM templates (packages acmart loads)"
need $tex/fonts/tfm/adobe/times/ptmr8t.tfm texlive-fonts-recommended "the NeurIPS and IEEE templates (Times)"
need /usr/share/texmf/tex/latex/lm/lmodern.sty lmodern "the arXiv, ACM and LNCS templates (Latin Modern)"
need ssh openssh-client "the SSH login probe"
need /usr/sbin/sshd openssh-server "the SSH login probe"
need python3 python3-minimal "running .py files"
need dockerd docker.io "real containers"
need busybox busybox "real containers (the test image)"
need podman podman "real podman containers"
need /usr/libexec/podman/catatonit catatonit "podman containers stopped with their command (its init)"
need /usr/bin/chromium chromium "the dashboard in a real browser (test/browser)"
need /lib/ld-musl-x86_64.so.1 musl "the musl executable run without glibc (test/e2e/release-musl.test.ts)"
need musl-gcc musl-tools "the musl executable run without glibc (its C++ runtime's glibc symbols)"
need file file "the released executables' formats"
need qemu-x86_64 qemu-user "the baseline executable run on an emulated CPU without AVX2"
need zsh zsh "the zsh completion script, in a real zsh"
need fish fish "the fish completion script, in a real fish"

# a real single-node cluster: munge, slurmctld, slurmd, installed when missing
if command -v sinfo >/dev/null 2>&1 && sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)$'; then
  :
elif [ "$can_install" = 1 ]; then
  bash test/support/slurm/start.sh || echo "test setup: the single-node Slurm did not start (see /var/log/slurm/), so the cluster tests are skipped"
else
  echo "test setup: no Slurm cluster here, so the cluster tests are skipped; run npm test as root on Debian or Ubuntu to start one (test/support/slurm/start.sh)"
fi
exit 0
