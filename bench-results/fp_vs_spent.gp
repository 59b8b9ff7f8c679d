# Writes fp_vs_spent.png beside this script: gnuplot path/to/this.gp
script_dir = ARG0
dir_end = strlen(script_dir)
while (dir_end > 0 && script_dir[dir_end:dir_end] ne '/') { dir_end = dir_end - 1 }
script_dir = script_dir[1:dir_end]
$d_0_0 << EOD
6 7.504 5.82519
8 2.892 2.39544
10 1.232 1.07422
16 0.282498 0.278324
20 0.254893 0.239336
EOD
$d_0_1 << EOD
6.00003 5.736 5.75341
8 2.324 2.31212
10 0.983 0.957557
16 0.0877236 0.0825635
20 0.0196 0.0191474
EOD
$d_0_2 << EOD
4.4809 5.752 5.75347
5.94452 2.369 2.31212
7.29319 0.993 0.957567
11.1004 0.0811186 0.0825635
13.3844 0.01895 0.0191474
EOD
$d_0_3 << EOD
6 7.504 5.82519
8 2.892 2.39544
10 1.232 1.07422
16 0.282498 0.278324
20 0.254893 0.239336
EOD
$d_0_4 << EOD
6.00003 5.773 5.7387
8 2.386 2.30481
10 0.966 0.953257
16 0.0836617 0.0796779
20 0.01965 0.0170866
EOD
$d_0_5 << EOD
6.00008 6.091 6.33426
8.00006 2.631 2.88827
10 1.332 1.52179
16.0001 0.559 0.607224
20 0.508 0.519532
EOD
$d_0_6 << EOD
4.41543 5.773 5.73875
5.85909 2.322 2.3048
7.18988 0.931 0.953259
10.9953 0.082068 0.0796777
13.3623 0.0189 0.0170865
EOD
$d_1_0 << EOD
6 7.35 5.82519
8 2.522 2.39544
10 0.943 1.07422
16 0.0473149 0.278324
20 0.0125651 0.239336
EOD
$d_1_1 << EOD
6.00003 5.825 5.75341
8 2.309 2.31212
10 0.988 0.957557
16 0.0776096 0.0825635
20 0.02135 0.0191474
EOD
$d_1_2 << EOD
4.4809 5.721 5.75347
5.94452 2.249 2.31212
7.29319 0.892 0.957567
11.1004 0.0838019 0.0825635
13.3844 0.01815 0.0191474
EOD
$d_1_3 << EOD
6 7.35 5.82519
8 2.522 2.39544
10 0.943 1.07422
16 0.0473149 0.278324
20 0.0125651 0.239336
EOD
$d_1_4 << EOD
6.00003 5.865 5.7387
8 2.292 2.30481
10 0.976 0.953257
16 0.0856536 0.0796779
20 0.02015 0.0170866
EOD
$d_1_5 << EOD
6.00008 5.849 6.33426
8.00006 2.46 2.88827
10 1.151 1.52179
16.0001 0.352 0.607224
20 0.297 0.519532
EOD
$d_1_6 << EOD
4.41543 5.715 5.73875
5.85909 2.27 2.3048
7.18988 0.921 0.953259
10.9953 0.0778849 0.0796777
13.3623 0.01545 0.0170865
EOD
$d_2_0 << EOD
6 4.498 5.82519
8 2.01 2.39544
10 0.625 1.07422
16 0.192739 0.278324
20 0.0155568 0.239336
EOD
$d_2_1 << EOD
6.00003 5.685 5.75341
8 2.244 2.31212
10 0.889 0.957557
16 0.082357 0.0825635
20 0.01865 0.0191474
EOD
$d_2_2 << EOD
4.4809 5.804 5.75347
5.94452 2.304 2.31212
7.29319 0.927 0.957567
11.1004 0.0846275 0.0825635
13.3844 0.0187 0.0191474
EOD
$d_2_3 << EOD
6 4.498 5.82519
8 2.01 2.39544
10 0.625 1.07422
16 0.192739 0.278324
20 0.0155568 0.239336
EOD
$d_2_4 << EOD
6.00003 5.751 5.7387
8 2.314 2.30481
10 0.939 0.953257
16 0.0792794 0.0796779
20 0.0193 0.0170866
EOD
$d_2_5 << EOD
6.00008 5.365 6.33426
8.00006 2.566 2.88827
10 0.88 1.52179
16.0001 0.43 0.607224
20 0.396 0.519532
EOD
$d_2_6 << EOD
4.41543 5.879 5.73875
5.85909 2.386 2.3048
7.18988 0.963 0.953259
10.9953 0.087247 0.0796777
13.3623 0.018 0.0170865
EOD
$d_3_0 << EOD
6 5.237 5.82519
8 1.614 2.39544
10 0.571 1.07422
16 0.0368778 0.278324
20 0.0137618 0.239336
EOD
$d_3_1 << EOD
6.00003 5.719 5.75341
8 2.262 2.31212
10 0.998 0.957557
16 0.0875172 0.0825635
20 0.02055 0.0191474
EOD
$d_3_2 << EOD
4.4809 5.74 5.75347
5.94452 2.272 2.31212
7.29319 0.954 0.957567
11.1004 0.0802929 0.0825635
13.3844 0.01795 0.0191474
EOD
$d_3_3 << EOD
6 5.237 5.82519
8 1.614 2.39544
10 0.571 1.07422
16 0.0368778 0.278324
20 0.0137618 0.239336
EOD
$d_3_4 << EOD
6.00003 5.869 5.7387
8 2.428 2.30481
10 0.956 0.953257
16 0.0800762 0.0796779
20 0.02015 0.0170866
EOD
$d_3_5 << EOD
6.00008 3.694 6.33426
8.00006 1.467 2.88827
10 0.615 1.52179
16.0001 0.24 0.607224
20 0.191 0.519532
EOD
$d_3_6 << EOD
4.41543 5.622 5.73875
5.85909 2.214 2.3048
7.18988 0.961 0.953259
10.9953 0.0770881 0.0796777
13.3623 0.0166 0.0170865
EOD
$d_4_0 << EOD
6 7.416 5.82519
8 2.727 2.39544
10 1.085 1.07422
16 0.105067 0.278324
20 0.107103 0.239336
EOD
$d_4_1 << EOD
6.00003 5.891 5.75341
8 2.343 2.31212
10 0.989 0.957557
16 0.0831827 0.0825635
20 0.0205 0.0191474
EOD
$d_4_2 << EOD
4.4809 5.835 5.75347
5.94452 2.285 2.31212
7.29319 0.991 0.957567
11.1004 0.0821506 0.0825635
13.3844 0.01965 0.0191474
EOD
$d_4_3 << EOD
6 7.416 5.82519
8 2.727 2.39544
10 1.085 1.07422
16 0.105067 0.278324
20 0.107103 0.239336
EOD
$d_4_4 << EOD
6.00003 5.712 5.7387
8 2.364 2.30481
10 0.963 0.953257
16 0.086052 0.0796779
20 0.02025 0.0170866
EOD
$d_4_5 << EOD
6.00008 5.9 6.33426
8.00006 2.512 2.88827
10 1.231 1.52179
16.0001 0.415 0.607224
20 0.337 0.519532
EOD
$d_4_6 << EOD
4.41543 5.663 5.73875
5.85909 2.271 2.3048
7.18988 0.931 0.953259
10.9953 0.0838607 0.0796777
13.3623 0.0168 0.0170865
EOD
set terminal pngcairo size 1560,880 font 'sans,11'
set output script_dir.'fp_vs_spent.png'
set multiplot layout 2,3 title "False-positive rate vs bits/key spent at n = 10000000, each kind at its real memory (points: measured; dashed: model)" font 'sans,14'
set logscale y
set format y '%g%%'
set ylabel 'false-positive rate'
set xlabel 'bits per key spent (filter bytes x 8 / n)'
set grid xtics ytics mytics lc rgb '#dddddd'
unset key
unset logscale x
set format x '%g'
set title "keys: random16"
plot $d_0_1 using 1:2 with linespoints lc rgb '#1f77b4' lw 1.5 pt 4 ps 0.9 notitle, $d_0_2 using 1:2 with linespoints lc rgb '#2ca02c' lw 1.5 pt 5 ps 0.9 notitle, $d_0_3 using 1:2 with linespoints lc rgb '#9467bd' lw 1 pt 6 ps 1.9 notitle, $d_0_4 using 1:2 with linespoints lc rgb '#ff7f0e' lw 1.5 pt 7 ps 0.9 notitle, $d_0_5 using 1:2 with linespoints lc rgb '#8c564b' lw 1.5 pt 8 ps 0.9 notitle, $d_0_6 using 1:2 with linespoints lc rgb '#e377c2' lw 1.5 pt 9 ps 0.9 notitle, $d_0_0 using 1:2 with linespoints lc rgb '#d62728' lw 2 pt 7 ps 0.9 notitle, $d_0_0 using 1:3 with lines dt 2 lw 1.5 lc rgb 'black' notitle, 100 * 2**(-x) with lines dt 3 lw 1.5 lc rgb '#777777' notitle
set title "keys: le64"
plot $d_1_1 using 1:2 with linespoints lc rgb '#1f77b4' lw 1.5 pt 4 ps 0.9 notitle, $d_1_2 using 1:2 with linespoints lc rgb '#2ca02c' lw 1.5 pt 5 ps 0.9 notitle, $d_1_3 using 1:2 with linespoints lc rgb '#9467bd' lw 1 pt 6 ps 1.9 notitle, $d_1_4 using 1:2 with linespoints lc rgb '#ff7f0e' lw 1.5 pt 7 ps 0.9 notitle, $d_1_5 using 1:2 with linespoints lc rgb '#8c564b' lw 1.5 pt 8 ps 0.9 notitle, $d_1_6 using 1:2 with linespoints lc rgb '#e377c2' lw 1.5 pt 9 ps 0.9 notitle, $d_1_0 using 1:2 with linespoints lc rgb '#d62728' lw 2 pt 7 ps 0.9 notitle, $d_1_0 using 1:3 with lines dt 2 lw 1.5 lc rgb 'black' notitle, 100 * 2**(-x) with lines dt 3 lw 1.5 lc rgb '#777777' notitle
set title "keys: be64"
plot $d_2_1 using 1:2 with linespoints lc rgb '#1f77b4' lw 1.5 pt 4 ps 0.9 notitle, $d_2_2 using 1:2 with linespoints lc rgb '#2ca02c' lw 1.5 pt 5 ps 0.9 notitle, $d_2_3 using 1:2 with linespoints lc rgb '#9467bd' lw 1 pt 6 ps 1.9 notitle, $d_2_4 using 1:2 with linespoints lc rgb '#ff7f0e' lw 1.5 pt 7 ps 0.9 notitle, $d_2_5 using 1:2 with linespoints lc rgb '#8c564b' lw 1.5 pt 8 ps 0.9 notitle, $d_2_6 using 1:2 with linespoints lc rgb '#e377c2' lw 1.5 pt 9 ps 0.9 notitle, $d_2_0 using 1:2 with linespoints lc rgb '#d62728' lw 2 pt 7 ps 0.9 notitle, $d_2_0 using 1:3 with lines dt 2 lw 1.5 lc rgb 'black' notitle, 100 * 2**(-x) with lines dt 3 lw 1.5 lc rgb '#777777' notitle
set title "keys: user"
plot $d_3_1 using 1:2 with linespoints lc rgb '#1f77b4' lw 1.5 pt 4 ps 0.9 notitle, $d_3_2 using 1:2 with linespoints lc rgb '#2ca02c' lw 1.5 pt 5 ps 0.9 notitle, $d_3_3 using 1:2 with linespoints lc rgb '#9467bd' lw 1 pt 6 ps 1.9 notitle, $d_3_4 using 1:2 with linespoints lc rgb '#ff7f0e' lw 1.5 pt 7 ps 0.9 notitle, $d_3_5 using 1:2 with linespoints lc rgb '#8c564b' lw 1.5 pt 8 ps 0.9 notitle, $d_3_6 using 1:2 with linespoints lc rgb '#e377c2' lw 1.5 pt 9 ps 0.9 notitle, $d_3_0 using 1:2 with linespoints lc rgb '#d62728' lw 2 pt 7 ps 0.9 notitle, $d_3_0 using 1:3 with lines dt 2 lw 1.5 lc rgb 'black' notitle, 100 * 2**(-x) with lines dt 3 lw 1.5 lc rgb '#777777' notitle
set title "keys: url"
plot $d_4_1 using 1:2 with linespoints lc rgb '#1f77b4' lw 1.5 pt 4 ps 0.9 notitle, $d_4_2 using 1:2 with linespoints lc rgb '#2ca02c' lw 1.5 pt 5 ps 0.9 notitle, $d_4_3 using 1:2 with linespoints lc rgb '#9467bd' lw 1 pt 6 ps 1.9 notitle, $d_4_4 using 1:2 with linespoints lc rgb '#ff7f0e' lw 1.5 pt 7 ps 0.9 notitle, $d_4_5 using 1:2 with linespoints lc rgb '#8c564b' lw 1.5 pt 8 ps 0.9 notitle, $d_4_6 using 1:2 with linespoints lc rgb '#e377c2' lw 1.5 pt 9 ps 0.9 notitle, $d_4_0 using 1:2 with linespoints lc rgb '#d62728' lw 2 pt 7 ps 0.9 notitle, $d_4_0 using 1:3 with lines dt 2 lw 1.5 lc rgb 'black' notitle, 100 * 2**(-x) with lines dt 3 lw 1.5 lc rgb '#777777' notitle
unset title
unset xlabel
unset ylabel
unset border
unset tics
unset grid
unset logscale
set xrange [0:1]
set yrange [0:1]
set key center center font 'sans,12' spacing 1.4 samplen 4
plot NaN with linespoints lc rgb '#d62728' lw 2 pt 7 ps 0.9 title "sstfilter LevelDB-compatible Bloom", NaN with linespoints lc rgb '#1f77b4' lw 1.5 pt 4 ps 0.9 title "sstfilter cache-local Bloom", NaN with linespoints lc rgb '#2ca02c' lw 1.5 pt 5 ps 0.9 title "sstfilter compact (4-wise binary fuse)", NaN with linespoints lc rgb '#9467bd' lw 1 pt 6 ps 1.9 title "LevelDB's own (libleveldb)", NaN with linespoints lc rgb '#ff7f0e' lw 1.5 pt 7 ps 0.9 title "RocksDB FastLocalBloom (bloomfilter, fv5)", NaN with linespoints lc rgb '#8c564b' lw 1.5 pt 8 ps 0.9 title "RocksDB legacy Bloom (fv4)", NaN with linespoints lc rgb '#e377c2' lw 1.5 pt 9 ps 0.9 title "RocksDB Standard128Ribbon (ribbonfilter)", NaN with lines dt 2 lw 1.5 lc rgb 'black' title "model of sstfilter LevelDB-compatible Bloom", NaN with lines dt 3 lw 1.5 lc rgb '#777777' title "least possible: 2^{-bits spent}"
unset multiplot
