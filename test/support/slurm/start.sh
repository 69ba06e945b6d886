#!/bin/bash
# A single-node Slurm cluster for tests, started by hand (no systemd): munged, slurmctld, slurmd.
# Installs the Debian packages when missing. Idempotent: when the node already answers idle it
# returns at once. Prints one line at the end.
set -euo pipefail
T0=$(date +%s.%N)
say() { echo "slurm: $1 ($(awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN{printf "%.1f", b-a}') s)"; }
node_idle() { sinfo -h -o '%t' 2>/dev/null | grep -qE '^(idle|mix|alloc)$'; }

if command -v sinfo >/dev/null && node_idle; then say "already running"; exit 0; fi

PKGS="slurmctld slurmd slurm-client munge"
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null || ! command -v munged >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  # Debian's policy-rc.d convention: keep the package scripts from starting daemons we start ourselves.
  OWN_POLICY=0
  [ -e /usr/sbin/policy-rc.d ] || { printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d; chmod +x /usr/sbin/policy-rc.d; OWN_POLICY=1; }
  apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends $PKGS >/dev/null 2>&1 \
    || { apt-get -o DPkg::Lock::Timeout=600 update >/dev/null && apt-get -o DPkg::Lock::Timeout=600 install -y --no-install-recommends $PKGS >/dev/null; }
  if [ "$OWN_POLICY" = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi
fi

HOST=$(hostname -s); CPUS=$(nproc)
MEM=$(( $(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo) * 8 / 10 ))
mkdir -p /etc/slurm /run/munge /run/slurm /var/spool/slurmd /var/spool/slurmctld /var/log/slurm /var/lib/munge /var/log/munge
[ -s /etc/munge/munge.key ] || dd if=/dev/urandom of=/etc/munge/munge.key bs=1 count=128 status=none
chown munge:munge /etc/munge/munge.key /run/munge /var/lib/munge /var/log/munge; chmod 400 /etc/munge/munge.key
chown slurm:slurm /run/slurm /var/spool/slurmctld /var/log/slurm

# MinJobAge keeps finished jobs visible to squeue/scontrol for an hour (no accounting database here).
# OverTimeLimit=0 and a short KillWait make a TIMEOUT arrive soon after the limit; OverSubscribe
# lets a small test machine run many short jobs at once.
cat > /etc/slurm/slurm.conf <<CONF
ClusterName=ci
SlurmctldHost=$HOST
SlurmUser=slurm
AuthType=auth/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
ReturnToService=2
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmdSpoolDir=/var/spool/slurmd
StateSaveLocation=/var/spool/slurmctld
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=/var/log/slurm/jobcomp.log
MinJobAge=3600
KillWait=2
OverTimeLimit=0
NodeName=$HOST CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=FORCE:8
CONF

pid_alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
pid_alive /run/munge/munged.pid || runuser -u munge -- /usr/sbin/munged
pid_alive /run/slurm/slurmctld.pid || /usr/sbin/slurmctld
pid_alive /run/slurm/slurmd.pid || /usr/sbin/slurmd
# A node left DOWN by an earlier run comes back with ReturnToService=2; nudge it in case.
for _ in $(seq 1 150); do
  node_idle && { say "node $HOST idle, partition debug, $CPUS CPUs"; exit 0; }
  sinfo -h -o '%t' 2>/dev/null | grep -qE '^down' && scontrol update NodeName="$HOST" State=RESUME 2>/dev/null || true
  sleep 0.2
done
echo "slurm: node did not become idle" >&2; sinfo >&2 || true; exit 1
