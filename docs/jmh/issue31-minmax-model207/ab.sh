for r in 1 2; do for v in old new; do
 java -jar /tmp/bench-$v/benchmarks.jar 'GaugeBenchmark.(confinedGauge|statvarReport)$' -t 1 -f 4 -wi 3 -w 1s -i 5 -r 1s -rf json -rff ab-jdk17-$v-$r.json > ab-jdk17-$v-$r.txt 2>&1
done; done
echo ALLDONE
