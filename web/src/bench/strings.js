// The benchmark page's text, in the site's two languages, under 'bench.' (t('bench.title')).
import { defineStrings } from '../i18n.js';

defineStrings('bench', {
  en: {
    title: 'How fast is the core in your browser?',
    lede: 'This page runs the same benchmarks as scripts/bench.sh, in your browser, with both WebAssembly builds of the C++ core: the scalar build and the SIMD128 build. Each cell is the median GFLOP/s of repeated samples (± half the inter-quartile range); a multiply-add counts as 2 flops and attention as 4·n·m·d. The last two rows are one step of the training lab’s default configuration, in steps per second: from a fresh start, and once the run has learned (a converged run once ran several times slower, on subnormal floats). Nothing leaves your browser.',
    samples: 'Samples per cell',
    run: 'Run the benchmarks',
    running: 'Running… {done} of {total} cells',
    done: 'Done: {total} cells.',
    noSimd: 'This browser has no WebAssembly SIMD: only the scalar build runs.',
    caption: 'GFLOP/s in this browser, median ± half-IQR',
    work: 'Work',
    scalar: 'wasm scalar',
    simd: 'wasm SIMD128',
    ratio: 'SIMD / scalar',
    ofPeak: 'SIMD of peak',
    peak: 'Peak: the SIMD128 build does {rate} GFLOP/s (±{spread}%) of f32x4 multiplies and adds in independent chains, from registers with no loads, in this browser; the last column divides each SIMD cell by it. Kernels load their operands from memory, and on many CPUs each load takes an issue slot the arithmetic would otherwise use.',
    back: 'Back to the explanation',
  },
  zh: {
    title: '计算核心在你的浏览器里有多快？',
    lede: '本页在你的浏览器中运行与 scripts/bench.sh 相同的基准测试，分别使用 C++ 核心的两个 WebAssembly 构建：标量版与 SIMD128 版。每格是多次采样的 GFLOP/s 中位数（± 四分位距的一半）；一次乘加计为 2 次浮点运算，注意力计为 4·n·m·d。最后两行是训练实验默认配置的一个训练步，单位为每秒步数：一行从头开始，一行在模型学会之后（收敛后的训练曾因次正规浮点数慢了好几倍）。数据不会离开你的浏览器。',
    samples: '每格采样次数',
    run: '运行基准测试',
    running: '运行中… 已完成 {done}/{total} 格',
    done: '完成：共 {total} 格。',
    noSimd: '此浏览器不支持 WebAssembly SIMD：只运行标量版。',
    caption: '本浏览器中的 GFLOP/s，中位数 ± 四分位距的一半',
    work: '计算',
    scalar: 'wasm 标量',
    simd: 'wasm SIMD128',
    ratio: 'SIMD / 标量',
    ofPeak: 'SIMD 占峰值',
    peak: '峰值：在本浏览器中，SIMD128 版在彼此独立的链上从寄存器做 f32x4 乘法与加法（不读内存），速度为 {rate} GFLOP/s（±{spread}%）；最后一列是每个 SIMD 格除以这个峰值。实际计算核心要从内存读取操作数，而在许多 CPU 上每次读取都会占用本可用于运算的发射槽。',
    back: '返回讲解页',
  },
});
