// Bundles the React app (web/src) and the offline landing page (web/landing) into web/dist.
// The core arrives as a wasm-pack "bundler" package in web/pkg (scripts/build-wasm.sh).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import CompressionPlugin from 'compression-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';

const root = path.dirname(fileURLToPath(import.meta.url));

export default (env, argv) => ({
  mode: argv.mode ?? 'production',
  entry: {
    main: './web/src/main.jsx',
    landing: './web/landing/landing.jsx',
  },
  output: {
    path: path.join(root, 'web/dist'),
    filename: '[name].[contenthash:8].js',
    chunkFilename: '[name].[contenthash:8].js',
    assetModuleFilename: 'assets/[name].[contenthash:8][ext]',
    publicPath: '/',
    clean: true,
  },
  experiments: { asyncWebAssembly: true },
  // One runtime for both pages, so the core's wasm is one module under one name: with a runtime
  // per entry webpack emitted the same bytes twice under two hashes, and a visitor of the landing
  // page downloaded the core again in the app.
  optimization: { runtimeChunk: 'single' },
  resolve: {
    extensions: ['.js', '.jsx'],
    // The package's exports map hides its standalone SVG files; reach them by folder.
    alias: { 'flag-svgs': path.join(root, 'node_modules/country-flag-icons/3x2') },
  },
  module: {
    rules: [
      {
        test: /\.jsx?$/,
        include: [path.join(root, 'web/src'), path.join(root, 'web/landing')],
        use: {
          loader: 'babel-loader',
          options: {
            presets: [
              ['@babel/preset-env', { targets: 'defaults' }],
              ['@babel/preset-react', { runtime: 'automatic' }],
            ],
          },
        },
      },
      { test: /\.css$/, use: ['style-loader', 'css-loader'] },
      { test: /\.(woff2?|png|jpe?g|svg)$/, type: 'asset/resource' },
    ],
  },
  plugins: [
    new HtmlWebpackPlugin({
      template: 'web/index.html',
      filename: 'index.html',
      chunks: ['main'],
      favicon: 'web/assets/favicon.svg',
    }),
    new HtmlWebpackPlugin({
      template: 'web/landing/landing.html',
      filename: 'landing.html',
      chunks: ['landing'],
      favicon: 'web/assets/favicon.svg',
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
