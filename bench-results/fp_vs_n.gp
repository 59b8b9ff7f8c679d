# Writes fp_vs_n.png beside this script: gnuplot path/to/this.gp
script_dir = ARG0
dir_end = strlen(script_dir)
while (dir_end > 0 && script_dir[dir_end:dir_end] ne '/') { dir_end = dir_end - 1 }
script_dir = script_dir[1:dir_end]
$d_0_0 << EOD
1000 0.814 0.843644
10000 0.948 0.843852
100000 1.511 0.84593
1e+06 1.298 0.866705
1e+07 1.232 1.07422
EOD
$d_0_1 << EOD
1000 0.817 0.867532
10000 1.028 0.943699
100000 1.01 0.955789
1e+06 0.998 0.957414
1e+07 0.983 0.957557
EOD
$d_0_2 << EOD
1000 0.87 0.957642
10000 0.968 0.957574
100000 0.964 0.957567
1e+06 0.918 0.957567
1e+07 0.993 0.957567
EOD
$d_0_3 << EOD
1000 0.814 0.843644
10000 0.948 0.843852
100000 1.511 0.84593
1e+06 1.298 0.866705
1e+07 1.232 1.07422
EOD
$d_0_4 << EOD
1000 0.859 0.863485
10000 0.941 0.939438
100000 0.946 0.951494
1e+06 0.988 0.953115
1e+07 0.966 0.953257
EOD
$d_0_5 << EOD
1000 0.852 1.03569
10000 1.141 1.25821
100000 1.141 1.29067
1e+06 1.183 1.31487
1e+07 1.332 1.52179
EOD
$d_0_6 << EOD
1000 0.869 0.892733
10000 0.922 0.947249
100000 0.996 0.952389
1e+06 0.954 0.953195
1e+07 0.931 0.953259
EOD
$d_1_0 << EOD
1000 0.791 0.843644
10000 0.982 0.843852
100000 1.433 0.84593
1e+06 1.265 0.866705
1e+07 0.943 1.07422
EOD
$d_1_1 << EOD
1000 0.855 0.867532
10000 0.941 0.943699
100000 0.923 0.955789
1e+06 0.965 0.957414
1e+07 0.988 0.957557
EOD
$d_1_2 << EOD
1000 0.908 0.957642
10000 0.945 0.957574
100000 0.977 0.957567
1e+06 0.912 0.957567
1e+07 0.892 0.957567
EOD
$d_1_3 << EOD
1000 0.791 0.843644
10000 0.982 0.843852
100000 1.433 0.84593
1e+06 1.265 0.866705
1e+07 0.943 1.07422
EOD
$d_1_4 << EOD
1000 0.992 0.863485
10000 0.931 0.939438
100000 0.989 0.951494
1e+06 0.948 0.953115
1e+07 0.976 0.953257
EOD
$d_1_5 << EOD
1000 0.86 1.03569
10000 1.104 1.25821
100000 1.118 1.29067
1e+06 1.165 1.31487
1e+07 1.151 1.52179
EOD
$d_1_6 << EOD
1000 0.939 0.892733
10000 0.954 0.947249
100000 0.95 0.952389
1e+06 0.944 0.953195
1e+07 0.921 0.953259
EOD
$d_2_0 << EOD
1000 0.28 0.843644
10000 0.604 0.843852
100000 1.194 0.84593
1e+06 0.72 0.866705
1e+07 0.625 1.07422
EOD
$d_2_1 << EOD
1000 0.832 0.867532
10000 0.935 0.943699
100000 0.985 0.955789
1e+06 0.971 0.957414
1e+07 0.889 0.957557
EOD
$d_2_2 << EOD
1000 0.964 0.957642
10000 0.918 0.957574
100000 1.02 0.957567
1e+06 0.944 0.957567
1e+07 0.927 0.957567
EOD
$d_2_3 << EOD
1000 0.28 0.843644
10000 0.604 0.843852
100000 1.194 0.84593
1e+06 0.72 0.866705
1e+07 0.625 1.07422
EOD
$d_2_4 << EOD
1000 0.942 0.863485
10000 0.923 0.939438
100000 0.968 0.951494
1e+06 1.063 0.953115
1e+07 0.939 0.953257
EOD
$d_2_5 << EOD
1000 0.024 1.03569
10000 0.501 1.25821
100000 1.139 1.29067
1e+06 1.643 1.31487
1e+07 0.88 1.52179
EOD
$d_2_6 << EOD
1000 0.895 0.892733
10000 0.865 0.947249
100000 0.941 0.952389
1e+06 0.935 0.953195
1e+07 0.963 0.953259
EOD
$d_3_0 << EOD
1000 0.959 0.843644
10000 3.279 0.843852
100000 0.667 0.84593
1e+06 0.789 0.866705
1e+07 0.571 1.07422
EOD
$d_3_1 << EOD
1000 0.862 0.867532
10000 0.909 0.943699
100000 0.963 0.955789
1e+06 0.991 0.957414
1e+07 0.998 0.957557
EOD
$d_3_2 << EOD
1000 0.933 0.957642
10000 0.946 0.957574
100000 0.957 0.957567
1e+06 0.967 0.957567
1e+07 0.954 0.957567
EOD
$d_3_3 << EOD
1000 0.959 0.843644
10000 3.279 0.843852
100000 0.667 0.84593
1e+06 0.789 0.866705
1e+07 0.571 1.07422
EOD
$d_3_4 << EOD
1000 0.873 0.863485
10000 1.007 0.939438
100000 0.974 0.951494
1e+06 0.997 0.953115
1e+07 0.956 0.953257
EOD
$d_3_5 << EOD
1000 1.187 1.03569
10000 3.881 1.25821
100000 0.857 1.29067
1e+06 0.752 1.31487
1e+07 0.615 1.52179
EOD
$d_3_6 << EOD
1000 0.913 0.892733
10000 0.938 0.947249
100000 0.974 0.952389
1e+06 0.948 0.953195
1e+07 0.961 0.953259
EOD
$d_4_0 << EOD
1000 0.957 0.843644
10000 0.898 0.843852
100000 1.391 0.84593
1e+06 1.25 0.866705
1e+07 1.085 1.07422
EOD
$d_4_1 << EOD
1000 0.937 0.867532
10000 0.972 0.943699
100000 1.013 0.955789
1e+06 1.016 0.957414
1e+07 0.989 0.957557
EOD
$d_4_2 << EOD
1000 0.97 0.957642
10000 1.015 0.957574
100000 1.003 0.957567
1e+06 0.936 0.957567
1e+07 0.991 0.957567
EOD
$d_4_3 << EOD
1000 0.957 0.843644
10000 0.898 0.843852
100000 1.391 0.84593
1e+06 1.25 0.866705
1e+07 1.085 1.07422
EOD
$d_4_4 << EOD
1000 0.921 0.863485
10000 0.894 0.939438
100000 1.059 0.951494
1e+06 1.016 0.953115
1e+07 0.963 0.953257
EOD
$d_4_5 << EOD
1000 0.789 1.03569
10000 1.19 1.25821
100000 1.121 1.29067
1e+06 1.173 1.31487
1e+07 1.231 1.52179
EOD
$d_4_6 << EOD
1000 0.875 0.892733
10000 0.941 0.947249
100000 0.959 0.952389
1e+06 0.934 0.953195
1e+07 0.931 0.953259
EOD
set terminal pngcairo size 1560,880 font 'sans,11'
set output script_dir.'fp_vs_n.png'
set multiplot layout 2,3 title "False-positive rate vs n at 10 bits/key (points: measured; dashed: model)" font 'sans,14'
set logscale y
set format y '%g%%'
set ylabel 'false-positive rate'
set xlabel 'keys in the filter (n)'
set grid xtics ytics mytics lc rgb '#dddddd'
unset key
set logscale x
set format x '10^{%L}'
set title "keys: random16"
plot $d_0_1 using 1:2 with linespoints lc rgb '#1f77b4' lw 1.5 pt 4 ps 0.9 notitle, $d_0_2 using 1:2 with linespoints lc rgb '#2ca02c' lw 1.5 pt 5 ps 0.9 notitle, $d_0_3 using 1:2 with linespoints lc rgb '#9467bd' lw 1 pt 6 ps 1.9 notitle, $d_0_4 using 1:2 with linespoints lc rgb '#ff7f0e' lw 1.5 pt 7 ps 0.9 notitle, $d_0_5 using 1:2 with linespoints lc rgb '#8c564b' lw 1.5 pt 8 ps 0.9 notitle, $d_0_6 using 1:2 with linespoints lc rgb '#e377c2' lw 1.5 pt 9 ps 0.9 notitle, $d_0_0 using 1:2 with linespoints lc rgb '#d62728' lw 2 pt 7 ps 0.9 notitle, $d_0_0 using 1:3 with lines dt 2 lw 1.5 lc rgb 'black' notitle
set title "keys: le64"
plot $d_1_1 using 1:2 with linespoints lc rgb '#1f77b4' lw 1.5 pt 4 ps 0.9 notitle, $d_1_2 using 1:2 with linespoints lc rgb '#2ca02c' lw 1.5 pt 5 ps 0.9 notitle, $d_1_3 using 1:2 with linespoints lc rgb '#9467bd' lw 1 pt 6 ps 1.9 notitle, $d_1_4 using 1:2 with linespoints lc rgb '#ff7f0e' lw 1.5 pt 7 ps 0.9 notitle, $d_1_5 using 1:2 with linespoints lc rgb '#8c564b' lw 1.5 pt 8 ps 0.9 notitle, $d_1_6 using 1:2 with linespoints lc rgb '#e377c2' lw 1.5 pt 9 ps 0.9 notitle, $d_1_0 using 1:2 with linespoints lc rgb '#d62728' lw 2 pt 7 ps 0.9 notitle, $d_1_0 using 1:3 with lines dt 2 lw 1.5 lc rgb 'black' notitle
set title "keys: be64"
plot $d_2_1 using 1:2 with linespoints lc rgb '#1f77b4' lw 1.5 pt 4 ps 0.9 notitle, $d_2_2 using 1:2 with linespoints lc rgb '#2ca02c' lw 1.5 pt 5 ps 0.9 notitle, $d_2_3 using 1:2 with linespoints lc rgb '#9467bd' lw 1 pt 6 ps 1.9 notitle, $d_2_4 using 1:2 with linespoints lc rgb '#ff7f0e' lw 1.5 pt 7 ps 0.9 notitle, $d_2_5 using 1:2 with linespoints lc rgb '#8c564b' lw 1.5 pt 8 ps 0.9 notitle, $d_2_6 using 1:2 with linespoints lc rgb '#e377c2' lw 1.5 pt 9 ps 0.9 notitle, $d_2_0 using 1:2 with linespoints lc rgb '#d62728' lw 2 pt 7 ps 0.9 notitle, $d_2_0 using 1:3 with lines dt 2 lw 1.5 lc rgb 'black' notitle
set title "keys: user"
plot $d_3_1 using 1:2 with linespoints lc rgb '#1f77b4' lw 1.5 pt 4 ps 0.9 notitle, $d_3_2 using 1:2 with linespoints lc rgb '#2ca02c' lw 1.5 pt 5 ps 0.9 notitle, $d_3_3 using 1:2 with linespoints lc rgb '#9467bd' lw 1 pt 6 ps 1.9 notitle, $d_3_4 using 1:2 with linespoints lc rgb '#ff7f0e' lw 1.5 pt 7 ps 0.9 notitle, $d_3_5 using 1:2 with linespoints lc rgb '#8c564b' lw 1.5 pt 8 ps 0.9 notitle, $d_3_6 using 1:2 with linespoints lc rgb '#e377c2' lw 1.5 pt 9 ps 0.9 notitle, $d_3_0 using 1:2 with linespoints lc rgb '#d62728' lw 2 pt 7 ps 0.9 notitle, $d_3_0 using 1:3 with lines dt 2 lw 1.5 lc rgb 'black' notitle
set title "keys: url"
plot $d_4_1 using 1:2 with linespoints lc rgb '#1f77b4' lw 1.5 pt 4 ps 0.9 notitle, $d_4_2 using 1:2 with linespoints lc rgb '#2ca02c' lw 1.5 pt 5 ps 0.9 notitle, $d_4_3 using 1:2 with linespoints lc rgb '#9467bd' lw 1 pt 6 ps 1.9 notitle, $d_4_4 using 1:2 with linespoints lc rgb '#ff7f0e' lw 1.5 pt 7 ps 0.9 notitle, $d_4_5 using 1:2 with linespoints lc rgb '#8c564b' lw 1.5 pt 8 ps 0.9 notitle, $d_4_6 using 1:2 with linespoints lc rgb '#e377c2' lw 1.5 pt 9 ps 0.9 notitle, $d_4_0 using 1:2 with linespoints lc rgb '#d62728' lw 2 pt 7 ps 0.9 notitle, $d_4_0 using 1:3 with lines dt 2 lw 1.5 lc rgb 'black' notitle
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
plot NaN with linespoints lc rgb '#d62728' lw 2 pt 7 ps 0.9 title "sstfilter LevelDB-compatible Bloom", NaN with linespoints lc rgb '#1f77b4' lw 1.5 pt 4 ps 0.9 title "sstfilter cache-local Bloom", NaN with linespoints lc rgb '#2ca02c' lw 1.5 pt 5 ps 0.9 title "sstfilter compact (4-wise binary fuse)", NaN with linespoints lc rgb '#9467bd' lw 1 pt 6 ps 1.9 title "LevelDB's own (libleveldb)", NaN with linespoints lc rgb '#ff7f0e' lw 1.5 pt 7 ps 0.9 title "RocksDB FastLocalBloom (bloomfilter, fv5)", NaN with linespoints lc rgb '#8c564b' lw 1.5 pt 8 ps 0.9 title "RocksDB legacy Bloom (fv4)", NaN with linespoints lc rgb '#e377c2' lw 1.5 pt 9 ps 0.9 title "RocksDB Standard128Ribbon (ribbonfilter)", NaN with lines dt 2 lw 1.5 lc rgb 'black' title "model of sstfilter LevelDB-compatible Bloom"
unset multiplot
