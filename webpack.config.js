// Bundles the React app (web/src) and the offline landing page (web/landing) into web/dist,
// after the renderer (web/prerender) that writes the landing and sign-in pages already rendered,
// one per language, for the server to send. The core arrives as a wasm-bindgen "bundler"
// package in web/pkg (scripts/build-wasm.sh).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import CompressionPlugin from 'compression-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import PrerenderPlugin from './web/prerender/plugin.mjs';

const root = path.dirname(fileURLToPath(import.meta.url));

const babel = {
  test: /\.jsx?$/,
  include: [path.join(root, 'web/src'), path.join(root, 'web/landing'), path.join(root, 'web/prerender')],
  use: {
    loader: 'babel-loader',
    options: {
      presets: [
        ['@babel/preset-env', { targets: 'defaults' }],
        ['@babel/preset-react', { runtime: 'automatic' }],
      ],
    },
  },
};
const assetNames = 'assets/[name].[contenthash:8][ext]';
const resolve = {
  extensions: ['.js', '.jsx'],
  // The package's exports map hides its standalone SVG files; reach them by folder.
  alias: { 'flag-svgs': path.join(root, 'node_modules/country-flag-icons/3x2') },
};
const renderer = path.join(root, 'target/prerender/render.mjs');

/** The renderer, for Node: the pages' markup only (no styles; assets named as the app names them). */
const prerender = (argv) => ({
  name: 'prerender',
  mode: argv.mode ?? 'production',
  target: 'node',
  entry: './web/prerender/render.jsx',
  output: {
    path: path.dirname(renderer),
    filename: path.basename(renderer),
    library: { type: 'module' },
    assetModuleFilename: assetNames,
    publicPath: '/',
    clean: true,
  },
  experiments: { asyncWebAssembly: true, outputModule: true },
  optimization: { minimize: false },
  resolve,
  module: {
    rules: [
      babel,
      { test: /\.css$/, type: 'asset/source' },
      { test: /\.(woff2?|png|jpe?g|svg)$/, type: 'asset/resource', generator: { emit: false } },
    ],
  },
  performance: { hints: false },
  devtool: false,
});

const web = (argv) => ({
  name: 'web',
  dependencies: ['prerender'],
  mode: argv.mode ?? 'production',
  entry: {
    // The rendered sign-in page's early sending (accounts/early.js): a few kilobytes that run
    // before the app, which shares its modules (dependOn) and calls its handOver.
    signin: './web/src/accounts/early.js',
    main: { import: './web/src/main.jsx', dependOn: 'signin' },
    landing: './web/landing/main.jsx',
  },
  output: {
    path: path.join(root, 'web/dist'),
    filename: '[name].[contenthash:8].js',
    chunkFilename: '[name].[contenthash:8].js',
    assetModuleFilename: assetNames,
    publicPath: '/',
    clean: true,
  },
  experiments: { asyncWebAssembly: true },
  // One runtime for both pages, so the core's wasm is one module under one name: with a runtime
  // per entry webpack emitted the same bytes twice under two hashes, and a visitor of the landing
  // page downloaded the core again in the app.
  optimization: { runtimeChunk: 'single' },
  resolve,
  module: {
    rules: [
      babel,
      // Style sheets as files the pages link: the rendered pages are styled from the first paint.
      { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
      { test: /\.(woff2?|png|jpe?g|svg)$/, type: 'asset/resource' },
    ],
  },
  plugins: [
    new MiniCssExtractPlugin({ filename: '[name].[contenthash:8].css', chunkFilename: '[name].[contenthash:8].css' }),
    new HtmlWebpackPlugin({
      template: 'web/index.html',
      filename: 'index.html',
      chunks: ['signin', 'main'],
      favicon: 'web/assets/favicon.svg',
    }),
    new HtmlWebpackPlugin({
      template: 'web/landing/landing.html',
      filename: 'landing.html',
      chunks: ['landing'],
      favicon: 'web/assets/favicon.svg',
    }),
    new PrerenderPlugin({
      bundle: renderer,
      templates: JSON.parse(readFileSync(path.join(root, 'web/prerender/pages.json'), 'utf8')),
      locales: path.join(root, 'locales'),
      // The small core the rendered sign-in form is sent with (web/src/accounts/early.js): asked
      // for with the page's first files, not after its script has run.
      preload: { login: ['forms-core'] },
    }),
    // Brotli copies (`main.….js.br`) made once here at the highest quality, too slow for the
    // server to make at start: it serves them to browsers that accept br (the core's wasm
    // 307 → 232 KB, main.js 164 → 137 KB, against gzip -9), and its own gzip to the others.
    new CompressionPlugin({
      algorithm: 'brotliCompress',
      filename: '[path][base].br',
      test: /\.(js|css|html|svg|wasm)$/,
      compressionOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } },
      threshold: 1024,
      minRatio: 0.9,
    }),
  ],
  performance: { hints: false },
  devtool: false,
});

export default (env, argv) => [prerender(argv), web(argv)];
