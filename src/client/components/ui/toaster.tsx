import { Toaster as SonnerToaster } from 'sonner'

/** The one toast outlet (STYLE.md 22); call `toast` from 'sonner' anywhere. Toasts last 3 s (SPEC 9). */
export function Toaster() {
  return (
    <SonnerToaster
      position="top-center"
      duration={3000}
      closeButton
      toastOptions={{
        classNames: {
          toast: 'rounded-xl! border-line! shadow-lg! font-sans!',
        },
      }}
    />
  )
}
