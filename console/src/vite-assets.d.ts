/** Vite's `?url` imports: the URL of the file as the build emits it. */
declare module '*?url' {
  const url: string;
  export default url;
}
