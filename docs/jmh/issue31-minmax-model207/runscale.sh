set -x
J="java -Xms2g -Xmx2g -XX:+UseParallelGC -cp"
S=gauges-once,collect-1k-64,collect-10k-64-gauges,collect-10k-64
$J /tmp/bench-new/benchmarks.jar dev.statvar.jmh.ScaleBenchmark --shape $S --hot-after 1 --label two-slot --json scale-hot1-new-2.json > scale-hot1-new-2.txt 2>&1
$J /tmp/bench-old/benchmarks.jar dev.statvar.jmh.ScaleBenchmark --shape $S --hot-after 1 --label three-slot --json scale-hot1-old-2.json > scale-hot1-old-2.txt 2>&1
D=collect-1k-64,collect-10k-64,collect-10k-256,collect-100k-16,gauges-once
$J /tmp/bench-old/benchmarks.jar dev.statvar.jmh.ScaleBenchmark --shape $D --label three-slot --json scale-old-1.json > scale-old-1.txt 2>&1
$J /tmp/bench-new/benchmarks.jar dev.statvar.jmh.ScaleBenchmark --shape $D --label two-slot --json scale-new-1.json > scale-new-1.txt 2>&1
echo ALLDONE
