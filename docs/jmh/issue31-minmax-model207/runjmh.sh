set -x
J25=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
for t in 1 2; do
 for v in old new; do
  java -jar /tmp/bench-$v/benchmarks.jar 'GaugeBenchmark' -t $t -f 2 -wi 3 -w 1s -i 5 -r 1s -rf json -rff gauge-jdk17-t$t-$v.json > gauge-jdk17-t$t-$v.txt 2>&1
 done
done
for t in 1 2; do
 for v in new old; do
  $J25 -jar /tmp/bench-$v/benchmarks.jar 'GaugeBenchmark' -t $t -f 2 -wi 3 -w 1s -i 5 -r 1s -rf json -rff gauge-jdk25-t$t-$v.json > gauge-jdk25-t$t-$v.txt 2>&1
 done
done
for v in old new; do
  java -jar /tmp/bench-$v/benchmarks.jar 'HistogramBenchmark.(confinedHistogram|statvarRecord$)' -t 1 -f 2 -wi 3 -w 1s -i 5 -r 1s -rf json -rff hist-jdk17-t1-$v.json > hist-jdk17-t1-$v.txt 2>&1
done
echo ALLDONE
