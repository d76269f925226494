#!/usr/bin/env bash
# A real single-node Slurm cluster on this machine, for CI and for trying the book cycle on one
# machine: Debian's slurm-wlm and munge, with munged, slurmctld and slurmd started directly
# (no systemd needed), the node reachable as 127.0.0.1.
#
#   bash scripts/slurm/local-cluster.sh           install if needed, configure, start, wait for idle
#   bash scripts/slurm/local-cluster.sh --down    stop slurmd, slurmctld and munged
#   bash scripts/slurm/local-cluster.sh --status  print what is running and the node state
#
# Idempotent: daemons already running are left alone, a slurm.conf that would not change is not
# rewritten, and a changed one restarts the Slurm daemons. Needs root and a Debian-like system with
# apt-get. Environment: SLURM_WAIT_S (default 60) bounds the wait for the node to become idle.
# It refuses to overwrite an /etc/slurm/slurm.conf it did not write (a real cluster's).
set -euo pipefail

WAIT_S=${SLURM_WAIT_S:-60}
CONF_DIR=/etc/slurm
CONF=$CONF_DIR/slurm.conf
MARKER="# Written by renju scripts/slurm/local-cluster.sh: a one-node cluster on 127.0.0.1."
CTLD_PID=/run/slurmctld.pid
SLURMD_PID=/run/slurmd.pid
MUNGE_KEY=/etc/munge/munge.key
MUNGE_PID=/run/munge/munged.pid
LOG_DIR=/var/log/slurm
SPOOL=/var/spool/slurm

say() { echo "local-cluster: $*"; }
die() {
  echo "local-cluster: error: $*" >&2
  exit 1
}

# The node name slurmd finds for itself is the short host name; it is passed with -N as well, so
# the name never depends on name resolution (the addresses are 127.0.0.1 everywhere).
node=$(uname -n)
node=${node%%.*}
[[ -n $node ]] || die "the host has no name (uname -n is empty)"

# Is the process in PIDFILE alive and named NAME (comm, as the kernel truncates it)?
alive() {
  local pidfile=$1 name=$2 pid comm
  [[ -r $pidfile ]] || return 1
  pid=$(<"$pidfile")
  [[ $pid =~ ^[0-9]+$ ]] || return 1
  comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
  [[ $comm == "${name:0:15}"* ]]
}

show_logs() {
  local f
  for f in "$LOG_DIR/slurmctld.log" "$LOG_DIR/slurmd.log" /var/log/munge/munged.log; do
    if [[ -r $f ]]; then
      echo "----- last lines of $f" >&2
      tail -n 40 "$f" >&2
    fi
  done
  if command -v sinfo >/dev/null && alive "$CTLD_PID" slurmctld; then
    echo "----- sinfo -R; scontrol show node $node" >&2
    sinfo -R >&2 || true
    scontrol show node "$node" >&2 || true
  fi
}

fail() {
  echo "local-cluster: error: $*" >&2
  show_logs
  exit 1
}

# Send TERM to the daemon in PIDFILE and wait until it is gone.
stop_daemon() {
  local pidfile=$1 name=$2 pid i
  if ! alive "$pidfile" "$name"; then
    say "$name is not running"
    return 0
  fi
  pid=$(<"$pidfile")
  say "stopping $name (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 150; i++)); do
    alive "$pidfile" "$name" || return 0
    sleep 0.2
  done
  die "$name (pid $pid) did not stop within 30 s"
}

down() {
  stop_daemon "$SLURMD_PID" slurmd
  stop_daemon "$CTLD_PID" slurmctld
  stop_daemon "$MUNGE_PID" munged
}

report() {
  if alive "$1" "$2"; then say "$2 running (pid $(<"$1"))"; else say "$2 not running"; fi
}

status() {
  report "$MUNGE_PID" munged
  report "$CTLD_PID" slurmctld
  report "$SLURMD_PID" slurmd
  if command -v sinfo >/dev/null && alive "$CTLD_PID" slurmctld; then sinfo; fi
}

[[ $(id -u) -eq 0 ]] || die "must run as root (it installs packages and starts system daemons)"

case "${1:-}" in
  "") ;;
  --down) down; exit 0 ;;
  --status) status; exit 0 ;;
  *) die "usage: $0 [--down | --status]" ;;
esac

# ---- 1. packages
missing=()
for cmd in munged mungekey slurmctld slurmd sbatch sinfo scontrol; do
  command -v "$cmd" >/dev/null || missing+=("$cmd")
done
if ((${#missing[@]})); then
  command -v apt-get >/dev/null || die "missing ${missing[*]} and there is no apt-get to install slurm-wlm and munge"
  say "installing slurm-wlm and munge (missing: ${missing[*]})"
  # Keep the packages' init scripts from starting daemons before slurm.conf exists (Docker images
  # ship such a policy-rc.d already; a bare machine may not).
  policy_added=
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    policy_added=1
  fi
  rc=0
  {
    DEBIAN_FRONTEND=noninteractive apt-get update -q &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends slurm-wlm munge
  } || rc=$?
  [[ -z $policy_added ]] || rm -f /usr/sbin/policy-rc.d
  ((rc == 0)) || die "apt-get could not install slurm-wlm and munge (exit status $rc)"
  for cmd in "${missing[@]}"; do
    command -v "$cmd" >/dev/null || die "$cmd is still missing after installing slurm-wlm and munge"
  done
else
  say "slurm-wlm and munge are installed ($(slurmctld -V))"
fi
getent passwd munge >/dev/null || die "there is no munge user (the munge package creates it)"

# ---- 2. munge: key and daemon
install -d -o munge -g munge -m 0700 /etc/munge
install -d -o munge -g munge -m 0711 /var/lib/munge
install -d -o munge -g munge -m 0700 /var/log/munge
install -d -o munge -g munge -m 0755 /run/munge
if [[ ! -s $MUNGE_KEY ]]; then
  say "creating $MUNGE_KEY"
  runuser -u munge -- mungekey --create --keyfile="$MUNGE_KEY" --force
fi
chown munge:munge "$MUNGE_KEY"
chmod 0600 "$MUNGE_KEY"
if alive "$MUNGE_PID" munged; then
  say "munged is running (pid $(<"$MUNGE_PID"))"
else
  say "starting munged"
  runuser -u munge -- /usr/sbin/munged || fail "munged did not start"
fi
munge -n | unmunge >/dev/null || fail "munge cannot encode and decode a credential (munge -n | unmunge)"

# ---- 3. slurm.conf
cpus=$(nproc)
mem_mb=$(awk '/^MemTotal:/ { print int($2 / 1024) }' /proc/meminfo)
[[ $mem_mb =~ ^[0-9]+$ && $mem_mb -gt 0 ]] || die "cannot read MemTotal from /proc/meminfo"
# A little below the total: slurmd drains a node whose memory is below the configured amount.
real_mem=$((mem_mb * 95 / 100))
conf=$(
  cat <<EOF
$MARKER
# Regenerated on every run; edit the script, not this file.
ClusterName=renju-local
SlurmctldHost=$node(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
SlurmctldPort=6817
SlurmdPort=6818
StateSaveLocation=$SPOOL/ctld
SlurmdSpoolDir=$SPOOL/d
SlurmctldPidFile=$CTLD_PID
SlurmdPidFile=$SLURMD_PID
SlurmctldLogFile=$LOG_DIR/slurmctld.log
SlurmdLogFile=$LOG_DIR/slurmd.log
# No cgroups: containers often have no writable cgroup tree, and CI needs no enforcement.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
# There is no mail program on a bare machine; without this slurmctld logs an error.
MailProg=/bin/true
SchedulerType=sched/backfill
# CPUs are the consumable resource, so array tasks with --cpus-per-task=1 share the node.
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
# A node that was down (a restart) returns to service as soon as it registers.
ReturnToService=2
SlurmdTimeout=60
InactiveLimit=0
KillWait=10
MinJobAge=300
NodeName=$node NodeHostname=$node NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$real_mem State=UNKNOWN
PartitionName=debug Nodes=$node Default=YES MaxTime=INFINITE State=UP
EOF
)
install -d -m 0755 "$CONF_DIR" "$LOG_DIR" "$SPOOL"
install -d -m 0700 "$SPOOL/ctld" "$SPOOL/d"
changed=
if [[ -e $CONF ]] && ! grep -qxF "$MARKER" "$CONF"; then
  die "$CONF exists and was not written by this script; move it away to use the local cluster"
fi
if [[ ! -e $CONF ]] || [[ $(<"$CONF") != "$conf" ]]; then
  say "writing $CONF (node $node, $cpus CPUs, RealMemory=$real_mem MB)"
  printf '%s\n' "$conf" >"$CONF.tmp"
  mv "$CONF.tmp" "$CONF"
  changed=1
else
  say "$CONF is up to date (node $node, $cpus CPUs, RealMemory=$real_mem MB)"
fi
if [[ -n $changed ]] && { alive "$SLURMD_PID" slurmd || alive "$CTLD_PID" slurmctld; }; then
  say "the configuration changed: restarting the Slurm daemons"
  stop_daemon "$SLURMD_PID" slurmd
  stop_daemon "$CTLD_PID" slurmctld
fi

# ---- 4. slurmctld, then slurmd
deadline=$((SECONDS + WAIT_S))
if alive "$CTLD_PID" slurmctld; then
  say "slurmctld is running (pid $(<"$CTLD_PID"))"
else
  say "starting slurmctld"
  # -i: start even if saved state from an earlier configuration cannot be read.
  slurmctld -i || fail "slurmctld did not start"
fi
until scontrol ping 2>/dev/null | grep -q 'is UP'; do
  ((SECONDS < deadline)) || fail "slurmctld did not answer scontrol ping within $WAIT_S s"
  sleep 1
done
if alive "$SLURMD_PID" slurmd; then
  say "slurmd is running (pid $(<"$SLURMD_PID"))"
else
  say "starting slurmd"
  slurmd -N "$node" || fail "slurmd did not start"
fi

# ---- 5. wait until the node takes work
say "waiting for node $node to be idle (at most $WAIT_S s)"
resumed=
while :; do
  state=$(sinfo -h -n "$node" -o %T 2>/dev/null || true)
  case "$state" in
    # idle is what a fresh cluster shows; a rerun while jobs run sees the node busy but up.
    idle | mixed | allocated | completing) break ;;
    # Slurm keeps a drain across restarts in its saved state, so a node drained under an earlier
    # configuration (say "Low RealMemory") stays drained after the configuration is fixed. Resume
    # it once; if the present configuration is wrong too, it drains again and the wait fails
    # with the reason.
    drain* | down* | inval*)
      if [[ -z $resumed ]]; then
        say "node $node is $state ($(sinfo -h -n "$node" -o %E)): resuming it"
        scontrol update NodeName="$node" State=RESUME || true
        resumed=1
      fi
      ;;
  esac
  ((SECONDS < deadline)) || fail "node $node is '${state:-unknown}', not idle, after $WAIT_S s"
  sleep 1
done
say "node $node is $state; partition debug is ready:"
sinfo
