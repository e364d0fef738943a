import type { ComponentProps } from 'react'
import { Slider as SliderPrimitive } from 'radix-ui'
import { cn } from '#client/lib/cn.ts'

export type SliderProps = ComponentProps<typeof SliderPrimitive.Root> & {
  /** The thumb's accessible name (the thumb carries role slider). */
  thumbLabel: string
  /** Read out instead of the raw number, e.g. "70 %". */
  valueText?: string
  thumbProps?: Omit<ComponentProps<typeof SliderPrimitive.Thumb>, 'aria-label' | 'aria-valuetext'>
}

/** A single-thumb slider; arrow keys, Page Up/Down, Home and End work as WAI-ARIA describes. */
export function Slider({ className, thumbLabel, valueText, thumbProps, ...props }: SliderProps) {
  return (
    <SliderPrimitive.Root className={cn('relative flex h-6 w-full touch-none items-center select-none data-[disabled]:opacity-55', className)} {...props}>
      <SliderPrimitive.Track className="relative h-1.5 grow overflow-hidden rounded-full bg-line">
        <SliderPrimitive.Range className="absolute h-full bg-brand-600" />
      </SliderPrimitive.Track>
      <SliderPrimitive.Thumb
        aria-label={thumbLabel}
        aria-valuetext={valueText}
        className="block size-5 cursor-grab rounded-full border-2 border-brand-600 bg-white shadow-sm transition-shadow focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-500"
        {...thumbProps}
      />
    </SliderPrimitive.Root>
  )
}
